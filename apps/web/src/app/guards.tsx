import { Navigate, Outlet, useLocation } from 'react-router';
import { agentPagePath, HOME_AGENT } from '@/features/agents/agent-pages';
import { useAuth } from '@/features/auth/hooks/use-auth';

/** Signed-in pages: everyone else goes to /login (spec §2). */
export function RequireAuth() {
  const { user } = useAuth();
  return user ? <Outlet /> : <Navigate to="/login" replace />;
}

/** /login and /register: a signed-in user has nothing to do there. */
export function GuestOnly() {
  const { user } = useAuth();
  return user ? <Navigate to="/dashboard" replace /> : <Outlet />;
}

/**
 * `/`: signed in → /guia (spec §2; a single-agent account is sent on from there to its agent's
 * page), else /login, handing on any navigation state so /login shows the message a finished
 * registration left there (DESIGN: registration completion).
 */
export function RootRedirect() {
  const { user } = useAuth();
  const location = useLocation();
  if (user) return <Navigate to={agentPagePath(HOME_AGENT)} replace />;
  return <Navigate to="/login" replace state={location.state} />;
}
