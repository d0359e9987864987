/** The body of every response: `status` repeats the HTTP status. */
export interface Envelope<T = unknown> {
  status: number;
  message: string;
  data?: T;
  errors?: string[];
}
