import {
  LogController,
  type FastifyBaseLogger,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import { isLevelEnabled } from './logger';

/**
 * One log line per request, when it completes, with what it was and how it ended (not two). Its
 * fields are flat values (reqId, method, url, statusCode, remoteAddress, responseTime) rather than
 * pino's nested `req`/`res` serializer objects: building and stringifying those nested objects was
 * the largest cost an authenticated request had of its own (the GET /api/user row of
 * `npm run bench` shows the whole request's cost).
 */
export class OneLinePerRequest extends LogController {
  /**
   * The completion line of a request that succeeded holds only the fields below: nothing
   * redaction could find, and redaction was a tenth of an authenticated request's time. So it goes
   * through a child logger without redaction; every other line, an errored request's included,
   * keeps it.
   */
  private readonly plain = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  // Kept at debug level, where it shows what is still in flight. Checked first: the line's fields
  // (the client address behind a proxy above all) cost something to gather even when unwritten.
  override incomingRequest(request: FastifyRequest): void {
    if (!isLevelEnabled(request.log, 'debug')) return;
    request.log.debug(
      { method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip },
      'incoming request',
    );
  }

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error({ ...completion(request, reply), err: error }, 'request errored');
      return;
    }
    const root = request.server.log;
    let plain = this.plain.get(root);
    if (!plain) {
      plain = root.child({}, { redact: { paths: [], censor: '[redacted]' } });
      this.plain.set(root, plain);
    }
    plain.info(completion(request, reply, request.id), 'request completed');
  }
}

/**
 * A URL as logged: its path, without the query, which can hold what a person typed (a search)
 * and has no place in a log.
 */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A completion line's fields, made as one object (the line is written for every request). The
 * response time is in milliseconds to the microsecond: a double's full digits cost more to
 * print than the rest of the line's numbers together, and say nothing more.
 */
function completion(request: FastifyRequest, reply: FastifyReply, reqId?: string) {
  return {
    // Left out when undefined (pino skips undefined fields): an errored line's logger has it bound.
    reqId,
    method: request.method,
    url: loggedUrl(request.url),
    statusCode: reply.statusCode,
    remoteAddress: request.ip,
    responseTime: Math.round(reply.elapsedTime * 1000) / 1000,
  };
}
