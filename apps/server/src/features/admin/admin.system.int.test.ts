import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  type AdminSettingsResponse,
  type PublicSettings,
  type SystemSettings,
} from '@contrateia/shared';
import { eventually } from '../../../test/eventually';
import {
  completeRegistration,
  get,
  login,
  message,
  post,
  registerAndLogin,
  requestCode,
  sendOtp,
  uniqueEmail,
  UNLIMITED_ROUTES,
  DEFAULT_PASSWORD,
} from '../../../test/factories';
import {
  createTwoInstances,
  type TestClock,
  type TestContext,
  NO_MONITOR,
} from '../../../test/helpers';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/**
 * The system settings take effect at once, on every instance: registration closed, e-mail
 * verification off, maintenance, the session timeout. Two instances share the database, the
 * shared state and the clock; each change is made through A and checked through B.
 */
describe('system settings in force', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let clock: TestClock;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;
  let member: Account;

  beforeAll(async () => {
    instances = await createTwoInstances({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
    });
    ({ a, b, clock } = instances);
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
    member = await registerAndLogin(a, { name: 'Bruno' });
  });

  afterAll(async () => instances?.close());

  /** Saves the system settings through A (defaults but `changes`), and waits until B has them in force. */
  async function setSystem(changes: Partial<SystemSettings>) {
    const system = { ...defaultSettings().system, ...changes };
    const res = await post(a, '/api/admin/settings/system', system, { token: admin.token });
    expect(res.statusCode).toBe(200);
    await eventually(
      async () =>
        JSON.stringify(
          (
            await get(b, '/api/admin/settings', { token: admin.token })
          ).json<AdminSettingsResponse>().systemSettings,
        ) === JSON.stringify(system),
      'B has the new system settings',
      2_000,
    );
  }

  beforeEach(async () => {
    await setSystem({});
  });

  it('registration closed: asking for a code and completing a registration are refused with 403 on every instance; reopened, both work', async () => {
    const email = uniqueEmail();
    const { code } = await requestCode(a, { email });
    await setSystem({ registrationEnabled: false });

    for (const ctx of [a, b]) {
      const asked = await sendOtp(ctx, { email: uniqueEmail(), language: 'es-ES' });
      expect(asked.statusCode).toBe(403);
      expect(asked.json()).toEqual({
        success: false,
        message: message('es-ES', 'auth.registrationClosed'),
      });
      const completed = await completeRegistration(ctx, { email, otp: code });
      expect(completed.statusCode).toBe(403);
    }
    expect((await login(b, { identifier: email, password: DEFAULT_PASSWORD })).statusCode).toBe(
      401,
    );
    // Those who have an account still sign in.
    expect(
      (await login(b, { identifier: member.email, password: member.password })).statusCode,
    ).toBe(200);

    await setSystem({ registrationEnabled: true });
    expect((await completeRegistration(b, { email, otp: code })).statusCode).toBe(200);
  });

  it('e-mail verification off: an account is made from the form alone; on, the code is required', async () => {
    const email = uniqueEmail();
    const without = await completeRegistration(b, {
      email,
      otp: undefined as unknown as string,
      language: 'pt-BR',
    });
    expect(without.statusCode).toBe(400);
    expect(without.json()).toMatchObject({
      errors: { otp: message('pt-BR', 'validation.otpRequired') },
    });

    await setSystem({ emailVerification: false });
    const made = await post(b, '/api/complete-registration', {
      name: 'Carla',
      email,
      password: DEFAULT_PASSWORD,
    });
    expect(made.statusCode).toBe(200);
    expect((await login(a, { identifier: email, password: DEFAULT_PASSWORD })).statusCode).toBe(
      200,
    );
    // The address is still taken once.
    expect(
      (
        await post(b, '/api/complete-registration', {
          name: 'Carla',
          email,
          password: DEFAULT_PASSWORD,
        })
      ).statusCode,
    ).toBe(409);
  });

  it('maintenance: everyone but an admin gets 503 with Retry-After; the admin keeps working, in either mode', async () => {
    await setSystem({ maintenanceMode: true });
    for (const ctx of [a, b]) {
      const asMember = await get(ctx, '/api/user', { token: member.token, language: 'en-US' });
      expect(asMember.statusCode).toBe(503);
      expect(asMember.headers['retry-after']).toBe('300');
      expect(asMember.json()).toEqual({
        success: false,
        message: message('en-US', 'errors.maintenance'),
      });
      expect((await get(ctx, '/api/agents/available')).statusCode).toBe(503);
      expect((await sendOtp(ctx, { email: uniqueEmail() })).statusCode).toBe(503);
      // What the login page needs first stays open, and says so.
      expect((await get(ctx, '/api/health')).statusCode).toBe(200);
      expect((await get(ctx, '/api/settings/public')).json<PublicSettings>().maintenanceMode).toBe(
        true,
      );

      const memberLogin = await login(ctx, {
        identifier: member.email,
        password: member.password,
        language: 'es-ES',
      });
      expect(memberLogin.statusCode).toBe(503);
      expect(memberLogin.json()).toEqual({
        success: false,
        message: message('es-ES', 'errors.maintenance'),
      });
      // A wrong password is told as always: the 503 says nothing to someone without it.
      expect(
        (await login(ctx, { identifier: member.email, password: 'not-the-password' })).statusCode,
      ).toBe(401);

      expect((await get(ctx, '/api/user', { token: admin.token })).statusCode).toBe(200);
      expect(
        (await login(ctx, { identifier: admin.email, password: admin.password })).statusCode,
      ).toBe(200);
    }
    const asUser = (
      await post(a, '/api/switch-role', { targetRole: 'user' }, { token: admin.token })
    ).json<{ token: string }>().token;
    expect((await get(b, '/api/agents/user', { token: asUser })).statusCode).toBe(200);
    admin.token = (
      await post(b, '/api/switch-role', { targetRole: 'admin' }, { token: asUser })
    ).json<{ token: string }>().token;

    await setSystem({ maintenanceMode: false });
    expect((await get(b, '/api/user', { token: member.token })).statusCode).toBe(200);
  });

  it('the session timeout applies to sessions already open, on every instance', async () => {
    const fresh = await registerAndLogin(a, { name: 'Dora' });
    // Six idle minutes are fine with the default half hour.
    clock.advance(6 * 60_000);
    expect((await get(b, '/api/user', { token: fresh.token })).statusCode).toBe(200);
    expect((await get(b, '/api/user', { token: admin.token })).statusCode).toBe(200);

    await setSystem({ sessionTimeout: 5 });
    clock.advance(6 * 60_000);

    await eventually(
      async () => (await get(b, '/api/user', { token: fresh.token })).statusCode === 401,
      'B ends the idle session',
      2_000,
    );
    expect((await get(a, '/api/user', { token: fresh.token })).statusCode).toBe(401);

    // Signed in again, the admin restores the default for the tests after this one.
    admin.token = (await login(a, { identifier: admin.email, password: admin.password })).json<{
      token: string;
    }>().token;
    member.token = (await login(a, { identifier: member.email, password: member.password })).json<{
      token: string;
    }>().token;
  });
});
