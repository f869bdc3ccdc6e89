// A route registered from its declaration in src/shared/contracts (decision 022): the method, the
// path and the schemas that validate the request and shape the answer all come from the one
// `Endpoint` the browser calls, and the handler's request and answer are typed by it.
import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault, RouteShorthandOptions } from "fastify";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import type * as z from "zod/mini";
import type { Endpoint, Out } from "../../shared/contracts/endpoint.ts";

type App = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, ZodTypeProvider>;

/** The request of an endpoint, as its schemas give it to the handler (validated). */
export type EndpointRequest<E extends Endpoint> = FastifyRequest<{ Params: Out<E["params"]>; Querystring: Out<E["query"]>; Body: Out<E["body"]> }>;

/** What a route may add to its declaration: its rate limit and body limit, and hooks of its own. */
type RouteOptions = Pick<RouteShorthandOptions, "config" | "bodyLimit" | "onRequest" | "preHandler">;

export function route<E extends Endpoint>(
  app: App,
  declared: E,
  options: RouteOptions,
  handler: (request: EndpointRequest<E>, reply: FastifyReply) => Promise<z.input<E["response"]>>,
): void {
  const status = declared.status ?? 200;
  app.route({
    ...options,
    config: { ...options.config, answersJson: true },
    method: declared.method,
    url: declared.path,
    schema: {
      ...(declared.params && { params: declared.params }),
      ...(declared.query && { querystring: declared.query }),
      ...(declared.body && { body: declared.body }),
      response: { [status]: declared.response },
    },
    handler: async (request, reply) => {
      const answer = await handler(request as EndpointRequest<E>, reply);
      return reply.code(status).send(answer);
    },
  });
}
