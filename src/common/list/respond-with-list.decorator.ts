import type { Type } from '@nestjs/common';
import { getSchemaPath } from '@nestjs/swagger';
import { respondWithSchema } from '../envelope/respond-with.decorator.js';

/** A list route's success answer, `data = {items, next_cursor, has_more}` (the list convention), documented with its item type. */
export const RespondWithList = (itemType: Type<unknown>, description?: string) =>
  respondWithSchema(
    200,
    'succès',
    {
      type: 'object',
      required: ['items', 'next_cursor', 'has_more'],
      properties: {
        items: { type: 'array', items: { $ref: getSchemaPath(itemType) } },
        next_cursor: {
          type: ['string', 'null'],
          description: 'Pass as `cursor` to read the next page, with the same filters; null on the last page',
          example: 'eyJpZCI6IjAxOTNhM2MyLTlkM2EtN2U1Yy1iMTJhLTRkOGIzZTFmNmEyMCIsImYiOiJxTGc2Y3Y4bmJ4RSJ9',
        },
        has_more: { type: 'boolean', example: true },
      },
    },
    [itemType],
    description,
  );
