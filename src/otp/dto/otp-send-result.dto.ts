import { Integer, Uuid } from '../../common/openapi/formats.js';

/** The OTP just sent. */
export class OtpSendResultDto {
  /**
   * Identifier of the OTP message (also the `uniq_id` of its SMS).
   * @example "0193a3c2-8c2f-7d4b-a01f-3c7a2d0e5f10"
   */
  @Uuid()
  uniq_id!: string;
  /**
   * The generated code.
   * @example "482913"
   */
  code!: string;
  /**
   * Expiry, as a Unix time in seconds.
   * @example 1795334700
   */
  @Integer()
  expires_at!: number;
}
