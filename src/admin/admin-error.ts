/** A refused administration request; its message is shown to the operator as is. */
export class AdminError extends Error {
  override readonly name = 'AdminError';
}
