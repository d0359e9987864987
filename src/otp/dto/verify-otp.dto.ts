import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, MaxLength, MinLength } from 'class-validator';
import { Messages } from '../../common/validation/messages.js';

export class VerifyOtpDto {
  @ApiProperty({ example: '+2250707070707', description: 'The recipient the code was sent to (a value with @ is an e-mail address)' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MaxLength(254, { message: Messages.maxLength(254) })
  to!: string;

  @ApiProperty({ example: '482913', description: 'The code to check (case does not matter)' })
  @IsDefined({ message: Messages.required })
  @IsString({ message: Messages.string })
  @MinLength(1, { message: Messages.notEmpty })
  @MaxLength(64, { message: Messages.maxLength(64) })
  code!: string;
}
