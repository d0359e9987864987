/**
 * The operator's routes: everything under `/v1/admin`, and nothing else,
 * takes operator keys; every other route takes account credentials. The bearer
 * guard and the OpenAPI document both decide by this one rule.
 */
const ADMIN_ROUTES = /^\/v1\/admin(?:\/|$)/;

export const isAdminRoute = (path: string): boolean => ADMIN_ROUTES.test(path);

/** The `errors` of the 403 `acces_refuse` for a valid credential of the other kind. */
export const OPERATOR_KEY_REQUIRED = "Authorization: route réservée aux clés d'opérateur (mk_op_…)";
export const ACCOUNT_CREDENTIAL_REQUIRED = "Authorization: une clé d'opérateur n'ouvre que /v1/admin";
