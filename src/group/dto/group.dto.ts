import { DateTime, Uuid } from '../../common/openapi/formats.js';

/** A group of contacts. */
export class GroupDto {
  /** @example "0193a3c2-9d3a-7e5c-b12a-4d8b3e1f6a20" */
  @Uuid()
  id!: string;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e01" */
  @Uuid()
  company_id!: string;
  /** @example "Clients VIP" */
  name!: string;
  /** @example "Clients à relancer chaque mois" */
  description!: string | null;
  /** Members @example 42 */
  contact_count!: number;
  /** @example "0193a3c2-7b1e-7c3a-9f0e-2b6f1c9d4e02" */
  @Uuid(true)
  created_by!: string | null;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  created_at!: string;
  /** @example "2026-11-22T08:00:00.000Z" */
  @DateTime()
  updated_at!: string;
}
