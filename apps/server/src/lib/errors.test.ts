import { describe, expect, it } from 'vitest';
import { AppError, defineError } from './errors';

describe('defineError', () => {
  const otpMissing = defineError(400, 'auth.otpMissing', { field: 'otp' });

  it('makes a new AppError at each throw, with the status, key and field it was defined with', () => {
    const first = otpMissing();
    expect(first).toBeInstanceOf(AppError);
    expect(first).toMatchObject({ statusCode: 400, key: 'auth.otpMissing', field: 'otp' });
    expect(otpMissing()).not.toBe(first);
  });

  it("takes a throw's cause, and another field when the throw names one", () => {
    const cause = new Error('mail server down');
    const error = otpMissing({ cause, field: 'code' });
    expect(error.cause).toBe(cause);
    expect(error.field).toBe('code');
    expect(otpMissing().field).toBe('otp');
  });
});
