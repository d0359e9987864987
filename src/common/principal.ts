/** Who is calling: a user of one account, through one credential. */
export interface Principal {
  userId: string;
  accountId: string;
  /** `key:<api key id>` or `user:<user id>` for JWTs; rate limits count per credential. */
  credentialId: string;
  /** A sandbox (`mk_test_`) key: its sends never debit and never reach a provider. */
  test: boolean;
}
