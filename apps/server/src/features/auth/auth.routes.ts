import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  accountArchiveLinkSchema,
  accountExportSchema,
  changePasswordSchema,
  completeRegistrationSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  profileResponseSchema,
  resetPasswordSchema,
  sessionsResponseSchema,
  updateProfileResponseSchema,
  updateProfileSchema,
  errorResponseSchema,
  loginSchema,
  messageResponseSchema,
  sendOtpSchema,
  sessionResponseSchema,
  switchRoleSchema,
  userResponseSchema,
  type UserResponse,
} from '@contrateia/shared';
import { rememberingSerializer } from '@/lib/response-serializer';
import { authOf } from '@/plugins/auth';
import type { AuthService } from './auth.service';

export type AuthRouteLimits = {
  /** Requests per minute per IP on the unauthenticated account endpoints. */
  sendOtpPerMinute: number;
  registrationPerMinute: number;
  loginPerMinute: number;
  /** Per IP, the ZIP of "Download my data" and its address: each may read gigabytes. */
  archivePerMinute: number;
};

export const DEFAULT_AUTH_ROUTE_LIMITS: AuthRouteLimits = {
  sendOtpPerMinute: 20,
  registrationPerMinute: 30,
  loginPerMinute: 60,
  archivePerMinute: 10,
};

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};
const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/** The signed address of the account's ZIP (archive-link's), its parts as strings to check. */
const archiveQuery = z.object({
  session: z.string().max(64).optional(),
  expires: z.string().max(20).optional(),
  signature: z.string().max(100).optional(),
});
const isSigned = (query: Record<string, unknown>) =>
  query.session !== undefined || query.expires !== undefined || query.signature !== undefined;

/** Account routes: thin, each validates, calls one service function, and returns. */
export const authRoutes: FastifyPluginAsyncZod<{
  auth: AuthService;
  limits: AuthRouteLimits;
}> = async (app, { auth, limits }) => {
  app.post(
    '/send-otp',
    {
      schema: { body: sendOtpSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.sendOtpPerMinute),
    },
    async (request) => {
      const { email } = await auth.sendOtp({ ...request.body, language: request.language });
      return { success: true, message: request.t('auth.otpSent', { email }) };
    },
  );

  app.post(
    '/complete-registration',
    {
      schema: {
        body: completeRegistrationSchema,
        response: { 200: messageResponseSchema, ...errors },
      },
      config: perMinute(limits.registrationPerMinute),
    },
    async (request) => {
      await auth.completeRegistration({
        ...request.body,
        language: request.language,
        requestId: request.id,
      });
      return { success: true, message: request.t('auth.registered') };
    },
  );

  app.post(
    '/login',
    {
      schema: { body: loginSchema, response: { 200: sessionResponseSchema, ...errors } },
      config: perMinute(limits.loginPerMinute),
    },
    async (request) => {
      const { user, token } = await auth.login({
        identifier: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      return {
        success: true,
        message: request.t('auth.loginSuccess', { name: user.name }),
        user,
        token,
      };
    },
  );

  app.get(
    '/user',
    {
      schema: { response: { 200: userResponseSchema, 401: errorResponseSchema } },
      onRequest: app.authenticate,
      // The account is the authenticator's cached object, replaced whole when it changes.
      serializerCompiler: rememberingSerializer((data: UserResponse) => data.user),
    },
    async (request) => ({ user: authOf(request).user }),
  );

  app.post(
    '/logout',
    {
      schema: { response: { 200: messageResponseSchema, 401: errorResponseSchema } },
      onRequest: app.authenticate,
    },
    async (request) => {
      await auth.logout({ sessionId: authOf(request).sessionId });
      return { success: true, message: request.t('auth.loggedOut') };
    },
  );

  app.post(
    '/switch-role',
    {
      schema: { body: switchRoleSchema, response: { 200: sessionResponseSchema, ...errors } },
      onRequest: app.authenticate,
    },
    async (request) => {
      const { user, sessionId } = authOf(request);
      const switched = await auth.switchRole({
        user,
        sessionId,
        targetRole: request.body.targetRole,
        userAgent: request.headers['user-agent'],
        requestId: request.id,
      });
      const role = request.t(`auth.roleNames.${request.body.targetRole}`);
      return { success: true, message: request.t('auth.roleSwitched', { role }), ...switched };
    },
  );

  // ---- Your account ----

  const signedIn = { onRequest: app.authenticate };

  app.get(
    '/profile',
    { schema: { response: { 200: profileResponseSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request) => auth.getProfile({ user: authOf(request).user, language: request.language }),
  );

  app.patch(
    '/profile',
    {
      schema: {
        body: updateProfileSchema,
        response: { 200: updateProfileResponseSchema, ...errors },
      },
      ...signedIn,
    },
    async (request) => {
      const updated = await auth.updateProfile({ user: authOf(request).user, ...request.body });
      // Worded in the interface's language (Accept-Language); the preferred language is for mails.
      return { success: true, message: request.t('account.profileSaved'), ...updated };
    },
  );

  app.post(
    '/change-password',
    {
      schema: { body: changePasswordSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.loginPerMinute),
      ...signedIn,
    },
    async (request) => {
      const { user, sessionId } = authOf(request);
      await auth.changePassword({ user, sessionId, ip: request.ip, ...request.body });
      return { success: true, message: request.t('account.passwordChanged') };
    },
  );

  app.get(
    '/sessions',
    {
      schema: { response: { 200: sessionsResponseSchema, 401: errorResponseSchema } },
      ...signedIn,
    },
    async (request) => {
      const { user, sessionId } = authOf(request);
      return { sessions: await auth.listSessions({ user, sessionId }) };
    },
  );

  app.post(
    '/sessions/revoke-others',
    { schema: { response: { 200: messageResponseSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request) => {
      const { user, sessionId } = authOf(request);
      const { count } = await auth.revokeOtherSessions({ user, sessionId });
      return { success: true, message: request.t('account.otherSessionsEnded', { count }) };
    },
  );

  app.post(
    '/forgot-password',
    {
      schema: { body: forgotPasswordSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.sendOtpPerMinute),
    },
    async (request) => {
      await auth.requestPasswordReset({ email: request.body.email, language: request.language });
      return {
        success: true,
        message: request.t('account.resetCodeSent', { email: request.body.email }),
      };
    },
  );

  app.post(
    '/reset-password',
    {
      schema: { body: resetPasswordSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.registrationPerMinute),
    },
    async (request) => {
      await auth.resetPassword({ ...request.body, ip: request.ip });
      return { success: true, message: request.t('account.passwordReset') };
    },
  );

  app.get(
    '/account/export',
    { schema: { response: { 200: accountExportSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request, reply) => {
      const data = await auth.exportData({
        user: authOf(request).user,
        language: request.language,
      });
      reply
        .header(
          'content-disposition',
          `attachment; filename="contrateia-${data.account.username}.json"`,
        )
        .header('cache-control', 'no-store');
      return data;
    },
  );

  app.post(
    '/account/export/archive-link',
    {
      schema: { response: { 200: accountArchiveLinkSchema, ...errors } },
      config: perMinute(limits.archivePerMinute),
      ...signedIn,
    },
    async (request) => {
      const { url } = auth.archiveLink({ sessionId: authOf(request).sessionId });
      return { success: true as const, url };
    },
  );

  app.get(
    '/account/export/archive',
    {
      // The address archive-link gave needs no bearer token (a browser's download sends none);
      // without one, the caller's own session.
      onRequest: (request, reply, done) => {
        if (isSigned(request.query as Record<string, unknown>)) return done();
        app.authenticate(request, reply, done);
      },
      // No response schema: the 200 is a stream (an error still gets the one error shape).
      schema: { querystring: archiveQuery },
      config: perMinute(limits.archivePerMinute),
    },
    async (request, reply) => {
      const user = isSigned(request.query)
        ? await auth.archiveUserOf(request.query)
        : authOf(request).user;
      const { username, archive } = await auth.exportArchive({ user, language: request.language });
      reply
        .type('application/zip')
        .header('content-disposition', `attachment; filename="contrateia-${username}.zip"`)
        .header('cache-control', 'no-store');
      return reply.send(archive);
    },
  );

  app.post(
    '/account/delete',
    {
      schema: { body: deleteAccountSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.loginPerMinute),
      ...signedIn,
    },
    async (request) => {
      await auth.deleteAccount({
        user: authOf(request).user,
        password: request.body.password,
        ip: request.ip,
      });
      return { success: true, message: request.t('account.accountDeleted') };
    },
  );
};
