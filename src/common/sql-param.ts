/** A value bound to a statement's `?`. */
export type Param = string | number | boolean | Date | Buffer | null | undefined;
