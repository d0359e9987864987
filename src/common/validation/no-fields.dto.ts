/** The body of a route that takes no fields: none, an empty one, or `{}`. */
export class NoFieldsDto {}
