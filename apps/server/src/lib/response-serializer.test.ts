import { describe, expect, it } from 'vitest';
import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { FastifyRouteSchemaDef } from 'fastify/types/schema';
import { z, type ZodType } from 'zod';
import { rememberingSerializer } from './response-serializer';

/** A schema that counts how often an answer was checked against it. */
function countingSchema() {
  const counter = { checks: 0 };
  const schema = z.object({
    user: z.object({ name: z.string() }).refine(() => {
      counter.checks += 1;
      return true;
    }),
  });
  return { schema, counter };
}

type Answer = { user: { name: string } };

const compile = (schema: ZodType, httpStatus: string) =>
  rememberingSerializer((data: Answer) => data.user)({
    schema,
    method: 'GET',
    url: '/api/user',
    httpStatus,
  } as FastifyRouteSchemaDef<ZodType>);

describe('rememberingSerializer', () => {
  it("checks and writes an object's answer once, and gives the same text after", () => {
    const { schema, counter } = countingSchema();
    const serialize = compile(schema, '200');
    const user = { name: 'Rita' };
    expect(serialize({ user })).toBe('{"user":{"name":"Rita"}}');
    expect(serialize({ user })).toBe('{"user":{"name":"Rita"}}');
    expect(counter.checks).toBe(1);
  });

  it('writes a new object anew, even with the same fields', () => {
    const { schema, counter } = countingSchema();
    const serialize = compile(schema, '200');
    serialize({ user: { name: 'Rita' } });
    expect(serialize({ user: { name: 'Rita Souza' } })).toBe('{"user":{"name":"Rita Souza"}}');
    expect(counter.checks).toBe(2);
  });

  it('refuses an answer its schema refuses, and remembers nothing of it', () => {
    const { schema } = countingSchema();
    const serialize = compile(schema, '200');
    const user = { name: 42 } as unknown as { name: string };
    expect(() => serialize({ user })).toThrow(ResponseSerializationError);
    expect(() => serialize({ user })).toThrow(ResponseSerializationError);
  });

  it("leaves other statuses' answers to the plain serializer", () => {
    const { schema, counter } = countingSchema();
    const serialize = compile(schema, '401');
    const user = { name: 'Rita' };
    serialize({ user });
    serialize({ user });
    expect(counter.checks).toBe(2);
  });
});
