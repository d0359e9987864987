import { FASTIFY_ROUTE_CONFIG_METADATA } from '@nestjs/platform-fastify/constants.js';

/**
 * Adds entries to a route's Fastify config (`request.routeOptions.config`),
 * keeping those other decorators put there: `@RouteConfig` replaces the whole
 * config, so two decorators using it on one route would lose one.
 */
export const AddRouteConfig =
  (config: Record<string, unknown>): MethodDecorator =>
  (_target, _key, descriptor) => {
    const handler = descriptor.value as object;
    const existing = (Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, handler) ?? {}) as Record<string, unknown>;
    Reflect.defineMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...existing, ...config }, handler);
  };
