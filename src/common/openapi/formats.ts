import { ApiProperty } from '@nestjs/swagger';

/** Formats the TypeScript types cannot carry into the OpenAPI document. */
export const Uuid = (nullable = false) => ApiProperty({ type: String, format: 'uuid', nullable });

export const DateTime = (nullable = false) => ApiProperty({ type: String, format: 'date-time', nullable });

export const Integer = (nullable = false) => ApiProperty({ type: 'integer', nullable });
