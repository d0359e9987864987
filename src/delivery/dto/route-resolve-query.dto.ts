import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsUUID } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';
import { IsPhone } from '../../common/validation/shared-rules.js';

const TRAFFIC = ['otp', 'bulk'] as const;

/** GET /v1/admin/routes/resolve: the destination of a message that is not sent. */
export class RouteResolveQueryDto {
  @ApiProperty({ example: '+2250707070707', description: 'The number, in international form' })
  @IsDefined({ message: Messages.required })
  @IsPhone()
  to!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'The sending account, for routes that match on accounts; none: only routes for any account match' })
  @IsOptional()
  @IsUUID('all', { message: 'doit être un identifiant (UUID)' })
  account_id?: string;

  @ApiPropertyOptional({ enum: TRAFFIC, default: 'bulk', description: 'An OTP, or any other SMS' })
  @IsOptional()
  @IsIn(TRAFFIC, { message: Messages.oneOf(TRAFFIC) })
  traffic?: (typeof TRAFFIC)[number];
}
