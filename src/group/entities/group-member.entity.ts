import { Entity, PrimaryColumn } from 'typeorm';
import { TimeColumn } from '../../database/columns.js';

@Entity('contact_group_member')
export class GroupMember {
  @PrimaryColumn({ name: 'group_id', type: 'varchar', length: 36 })
  groupId!: string;

  @PrimaryColumn({ name: 'contact_id', type: 'varchar', length: 36 })
  contactId!: string;

  @TimeColumn('created_at')
  createdAt!: Date;
}
