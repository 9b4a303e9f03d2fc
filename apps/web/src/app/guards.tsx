import { Navigate, Outlet, useLocation } from 'react-router';
import { rootHome, signedInHome } from '@/app/home';
import { useAuth } from '@/features/auth/hooks/use-auth';

/** Signed-in pages: everyone else goes to /login. */
export function RequireAuth() {
  const { user } = useAuth();
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** /login and /register: a signed-in user has nothing to do there (off to where a sign-in leads). */
export function GuestOnly() {
  const { user } = useAuth();
  return user ? <Navigate to={signedInHome(user)} replace /> : <Outlet />;
}

/**
 * `/`: signed in → /guia, or a single-agent account's agent page; else /login, handing on any
 * navigation state so /login shows the message a finished registration left there (a finished
 * registration goes to `/`, which a signed-out user leaves for /login).
 */
export function RootRedirect() {
  const { user } = useAuth();
  const location = useLocation();
  if (user) return <Navigate to={rootHome(user)} replace />;
  return <Navigate to="/login" replace state={location.state} />;
}
