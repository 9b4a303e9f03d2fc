import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { userQueryKey } from '@/features/auth/api/get-user';
import { setUnauthorizedHandler } from '@/lib/api-client';

const SIGNED_OUT_PAGES = new Set(['/login', '/register']);

/**
 * A 401 anywhere ends the session. The API client has already cleared storage; this resets the auth
 * state and goes to /login, unless the user is already on a signed-out page (a stale token checked
 * while opening /register should not move them to /login).
 */
export function SessionExpiry() {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pathname } = useLocation();

  useEffect(() => {
    setUnauthorizedHandler(() => {
      queryClient.setQueryData(userQueryKey, null);
      if (!SIGNED_OUT_PAGES.has(pathname)) void navigate('/login', { replace: true });
    });
    return () => setUnauthorizedHandler(() => {});
  }, [queryClient, navigate, pathname]);

  return null;
}
