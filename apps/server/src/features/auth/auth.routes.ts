import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  completeRegistrationSchema,
  errorResponseSchema,
  loginSchema,
  messageResponseSchema,
  sendOtpSchema,
  sessionResponseSchema,
  switchRoleSchema,
  userResponseSchema,
} from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import type { AuthService } from './auth.service';

export type AuthRouteLimits = {
  /** Requests per minute per IP on the unauthenticated account endpoints. */
  sendOtpPerMinute: number;
  registrationPerMinute: number;
  loginPerMinute: number;
};

export const DEFAULT_AUTH_ROUTE_LIMITS: AuthRouteLimits = {
  sendOtpPerMinute: 20,
  registrationPerMinute: 30,
  loginPerMinute: 60,
};

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema, 429: errorResponseSchema };
const perMinute = (max: number) => ({ rateLimit: { max, timeWindow: 60_000 } });

/** Account routes: thin, each validates, calls one service function, and returns. */
export const authRoutes: FastifyPluginAsyncZod<{ auth: AuthService; limits: AuthRouteLimits }> = async (
  app,
  { auth, limits },
) => {
  app.post(
    '/send-otp',
    { schema: { body: sendOtpSchema, response: { 200: messageResponseSchema, ...errors } }, config: perMinute(limits.sendOtpPerMinute) },
    async (request) => {
      const { email } = await auth.sendOtp({ ...request.body, language: request.language });
      return { success: true, message: request.t('auth.otpSent', { email }) };
    },
  );

  app.post(
    '/complete-registration',
    {
      schema: { body: completeRegistrationSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.registrationPerMinute),
    },
    async (request) => {
      await auth.completeRegistration(request.body);
      return { success: true, message: request.t('auth.registered') };
    },
  );

  app.post(
    '/login',
    { schema: { body: loginSchema, response: { 200: sessionResponseSchema, ...errors } }, config: perMinute(limits.loginPerMinute) },
    async (request) => {
      const { user, token } = await auth.login({ identifier: request.body.email, password: request.body.password, ip: request.ip });
      return { success: true, message: request.t('auth.loginSuccess', { name: user.name }), user, token };
    },
  );

  app.get(
    '/user',
    { schema: { response: { 200: userResponseSchema, 401: errorResponseSchema } }, preHandler: app.authenticate },
    async (request) => ({ user: authOf(request).user }),
  );

  app.post(
    '/logout',
    { schema: { response: { 200: messageResponseSchema, 401: errorResponseSchema } }, preHandler: app.authenticate },
    async (request) => {
      await auth.logout({ sessionId: authOf(request).sessionId });
      return { success: true, message: request.t('auth.loggedOut') };
    },
  );

  app.post(
    '/switch-role',
    { schema: { body: switchRoleSchema, response: { 200: sessionResponseSchema, ...errors } }, preHandler: app.authenticate },
    async (request) => {
      const { user, sessionId } = authOf(request);
      const switched = await auth.switchRole({ user, sessionId, targetRole: request.body.targetRole });
      const role = request.t(`auth.roleNames.${request.body.targetRole}`);
      return { success: true, message: request.t('auth.roleSwitched', { role }), ...switched };
    },
  );
};
