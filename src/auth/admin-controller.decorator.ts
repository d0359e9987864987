import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';

/**
 * A controller of the operator's interface, at `/v1/admin/<path>` under the
 * `Admin` tag: the bearer guard opens it to operator keys only (and to no
 * account credential), and the OpenAPI document says so. A capability adds its
 * operator routes with this decorator alone, in its own folder.
 */
export const AdminController = (path: string) => applyDecorators(Controller(`admin/${path}`), ApiTags('Admin'));
