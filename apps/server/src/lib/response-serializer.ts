import { ResponseSerializationError } from 'fastify-type-provider-zod';
import type { FastifyRouteSchemaDef, FastifySerializerCompiler } from 'fastify/types/schema';
import type { ZodType } from 'zod';

/**
 * Checks every response against its schema, as fastify-type-provider-zod's compiler does, but with
 * `safeParse` rather than `safeEncode`: our schemas have no codecs, so both give the same result,
 * and parsing takes zod's compiled fast path (about a tenth of the time on GET /api/user's answer).
 */
export const serializerCompiler: FastifySerializerCompiler<ZodType> = ({ schema, method, url }) => {
  return (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};

/**
 * A route's serializer for an answer that is only an object never changed in place (a cached
 * account, which is replaced whole when its row changes): each such object's answer is checked
 * and written once, and given again as long as the object lives. Other answers (the errors, or
 * when `sourceOf` finds no object) go through `serializerCompiler`.
 *
 * On GET /api/user, asked on every page load, checking and writing the same account each time
 * was a fifth of what the route did of its own (a CPU profile under load).
 */
export function rememberingSerializer<T, RouteSchema = ZodType>(
  sourceOf: (data: T) => object | undefined,
): FastifySerializerCompiler<RouteSchema> {
  return (route) => {
    // Fastify's type for a route's own compiler names the route's whole schema; what it is given,
    // as the app's compiler is, is the schema of one status's answer.
    const serialize = serializerCompiler(route as unknown as FastifyRouteSchemaDef<ZodType>);
    if (route.httpStatus !== '200') return serialize;
    const written = new WeakMap<object, string>();
    return (data) => {
      const source = sourceOf(data as T);
      if (!source) return serialize(data);
      let text = written.get(source);
      if (text === undefined) {
        text = serialize(data);
        written.set(source, text);
      }
      return text;
    };
  };
}
