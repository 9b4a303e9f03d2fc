import { lazy } from 'react';
import { Outlet, Route, Routes } from 'react-router';
import { GuestOnly, RequireAuth, RootRedirect } from '@/app/guards';
import { RootLayout } from '@/app/root-layout';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { AGENT_PAGE_NAMES } from '@/features/agents/agent-pages';
import { withPageTexts, withTexts } from '@/lib/i18n';

// Each page is its own chunk: /login downloads neither the dashboard nor the signed-in shell.
const LoginRoute = lazy(() => import('@/app/routes/login'));
// /register comes with its texts: /login's download has no room for them.
const RegisterRoute = lazy(() => withTexts('register', import('@/app/routes/register')));
// The account pages come with their texts (a chunk of their own, not in /login's download);
// /forgot-password's code step is the registration's.
const ForgotPasswordRoute = lazy(() =>
  withTexts(['account', 'register'], import('@/app/routes/forgot-password')),
);
const ProfileRoute = lazy(() => withTexts('account', import('@/app/routes/profile')));
// The signed-in shell brings the texts of every page in it (the `app` group), so none of those
// renders before them, on a hard reload of its address too.
const AppLayout = lazy(() => withTexts('app', import('@/app/app-layout')));
// Its texts are the signed-in pages' (app): not in /login's download, which has a budget.
const NotFoundPage = lazy(() =>
  withTexts(
    'app',
    import('@/app/routes/not-found').then(({ NotFoundPage }) => ({ default: NotFoundPage })),
  ),
);
const DashboardRoute = lazy(() => import('@/app/routes/dashboard'));
const AgentChatRoute = lazy(() => import('@/app/routes/agent-chat'));
const CustomAgentChatRoute = lazy(() => import('@/app/routes/custom-agent-chat'));
const AuxtratRoute = lazy(() => import('@/app/routes/auxtrat'));
// The WhatsApp pages come with their own texts, downloaded only by those who open them.
const WhatsAppRoute = lazy(() => withTexts('whatsapp', import('@/app/routes/whatsapp')));
const WhatsAppEnhancedRoute = lazy(() =>
  withTexts('whatsapp', import('@/app/routes/whatsapp-enhanced')),
);
// The admin panel and its texts: nothing of it reaches another page's download.
const AdminRoute = lazy(() => withTexts('admin', import('@/app/routes/admin')));
// The admin-only pages bring their texts' loaders in their own chunks (their `texts`).
const MonitorRoute = lazy(() => withPageTexts('monitor', import('@/app/routes/monitor')));
// The image library shares the admin texts (its forms' messages).
const ImagesRoute = lazy(() => withPageTexts('images', import('@/app/routes/images'), ['admin']));

const LogsRoute = lazy(() => withPageTexts('logs', import('@/app/routes/logs')));
// The account's own agents: their texts and their form's messages, downloaded by those who open them.
const MyAgentsRoute = lazy(() => withPageTexts('my-agents', import('@/app/routes/my-agents')));
const MyAgentRoute = lazy(() => withPageTexts('my-agents', import('@/app/routes/my-agent')));

/** The agents whose page is the generic chat; auxtrat has its own. */
const GENERIC_AGENT_PAGES = AGENT_PAGE_NAMES.filter((name) => name !== 'auxtrat');

/** Around the not-found page: the signed-in shell for a signed-in user, the bare page otherwise. */
function NotFoundShell() {
  const { user } = useAuth();
  if (user) return <AppLayout />;
  return (
    <main className="not-found-main">
      <Outlet />
    </main>
  );
}

/**
 * The app's routes. An unknown address shows a not-found page with the way back, rather than
 * sending the reader to /login with no word of what happened. Declarative routes rather than a data
 * router: nothing here loads data per route (TanStack Query does that), and the data router would
 * add its weight to every page.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<RootRedirect />} />
        <Route element={<GuestOnly />}>
          <Route path="login" element={<LoginRoute />} />
          <Route path="register" element={<RegisterRoute />} />
          <Route path="forgot-password" element={<ForgotPasswordRoute />} />
        </Route>
        <Route element={<RequireAuth />}>
          <Route element={<AppLayout />}>
            <Route path="dashboard" element={<DashboardRoute />} />
            {GENERIC_AGENT_PAGES.map((name) => (
              // The key gives each agent its own page state: no chat carries over to the next.
              <Route
                key={name}
                path={name}
                element={<AgentChatRoute key={name} agentName={name} />}
              />
            ))}
            <Route path="auxtrat" element={<AuxtratRoute />} />
            {/* The agents an admin created: one generic chat page, by name. */}
            <Route path="agent/:name" element={<CustomAgentChatRoute />} />
            <Route path="whatsapp" element={<WhatsAppRoute />} />
            <Route path="whatsapp-enhanced" element={<WhatsAppEnhancedRoute />} />
            <Route path="my-agents" element={<MyAgentsRoute />} />
            <Route path="my-agents/new" element={<MyAgentRoute />} />
            <Route path="my-agents/:id" element={<MyAgentRoute />} />
            <Route path="profile" element={<ProfileRoute />} />
            <Route path="admin" element={<AdminRoute />} />
            <Route path="monitor" element={<MonitorRoute />} />
            <Route path="images" element={<ImagesRoute />} />
            <Route path="logs" element={<LogsRoute />} />
          </Route>
        </Route>
        <Route element={<NotFoundShell />}>
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Route>
    </Routes>
  );
}
