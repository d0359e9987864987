import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIObject, OperationObject, ParameterObject, RequestBodyObject } from '@nestjs/swagger';
import type { Schema } from './schema-arbitrary.js';

const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

/** One operation of the document, its references resolved, with its inputs as JSON Schemas. */
export interface ApiOperation {
  method: (typeof METHODS)[number];
  /** The path template, `/v1/group/{id}`. */
  path: string;
  operation: OperationObject;
  pathParameters: string[];
  /** The query parameters as one object schema (their values go out as text). */
  query: Schema;
  headers: Schema;
  /** The JSON body's schema, when the operation takes one. */
  body?: { schema: Schema; required: boolean };
  /** The content types of a body that is not JSON (a CSV upload). */
  otherBodyTypes: string[];
}

/** Every operation of the document. */
export async function operationsOf(document: OpenAPIObject): Promise<ApiOperation[]> {
  const resolved = (await SwaggerParser.dereference(structuredClone(document) as never)) as unknown as OpenAPIObject;
  return Object.entries(resolved.paths).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => {
      const operation = item[method] as OperationObject;
      const parameters = (operation.parameters ?? []) as ParameterObject[];
      const requestBody = operation.requestBody as RequestBodyObject | undefined;
      const json = requestBody?.content['application/json']?.schema as Schema | undefined;
      return {
        method,
        path,
        operation,
        pathParameters: parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name),
        query: objectOf(parameters.filter((parameter) => parameter.in === 'query')),
        headers: objectOf(parameters.filter((parameter) => parameter.in === 'header')),
        body: json ? { schema: json, required: requestBody?.required === true } : undefined,
        otherBodyTypes: Object.keys(requestBody?.content ?? {}).filter((type) => type !== 'application/json'),
      };
    }),
  );
}

/** Parameters as the properties of one object; OpenAPI cannot say that no other parameter is taken. */
function objectOf(parameters: ParameterObject[]): Schema {
  return {
    type: 'object',
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, (parameter.schema ?? { type: 'string' }) as Schema])),
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
  };
}
