import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { GuestOnly, RequireAuth, RootRedirect } from '@/app/guards';
import { RootLayout } from '@/app/root-layout';

// Each page is its own chunk: /login downloads neither the dashboard nor the signed-in shell.
const LoginRoute = lazy(() => import('@/app/routes/login'));
const RegisterRoute = lazy(() => import('@/app/routes/register'));
const AppLayout = lazy(() => import('@/app/app-layout'));
const DashboardRoute = lazy(() => import('@/app/routes/dashboard'));

/**
 * Routes (spec §2). Declarative routes rather than a data router: nothing here loads data per
 * route (TanStack Query does that), and the data router would add ~15 KB gzip to every page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<RootRedirect />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginRoute />} />
          <Route path="register" element={<RegisterRoute />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            <Route path="dashboard" element={<DashboardRoute />} />
          </Route>
        </Route>
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Route>
    </Routes>
  );
}
