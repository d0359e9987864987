/** Who is calling: a user of one account, through one credential. */
export interface Principal {
  userId: string;
  accountId: string;
  /** `key:<api key id>` or `user:<user id>` for JWTs; rate limits count per credential. */
  credentialId: string;
  /** A sandbox (`mk_test_`) key: its sends never debit and never reach a provider. */
  test: boolean;
}

/** The platform's operator, through one operator key (`mk_op_…`): it belongs to no account and opens `/v1/admin` only. */
export interface OperatorPrincipal {
  operatorKeyId: string;
  /** `operator:<operator key id>`; rate limits count per credential. */
  credentialId: string;
}

export const isOperator = (principal: Principal | OperatorPrincipal): principal is OperatorPrincipal => 'operatorKeyId' in principal;

/**
 * Where the operator's Idempotency-Keys are kept, beside the accounts' own:
 * one key space for every operator key, as the operator is one party (a UUID
 * no account has).
 */
export const OPERATOR_IDEMPOTENCY_SCOPE = '00000000-0000-0000-0000-000000000000';
