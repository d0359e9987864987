import { Inject, Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { secretsConfig, type SecretsConfig } from '../config/secrets.config.js';

export interface IssuedToken {
  token: string;
  /** Unix seconds. */
  expiresAt: number;
}

@Injectable()
export class TokenService {
  private readonly jwt = new JwtService();

  constructor(@Inject(secretsConfig.KEY) private readonly secrets: SecretsConfig) {}

  issue(userId: string, accountId: string, ttlSeconds: number): IssuedToken {
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const token = this.jwt.sign(
      { sub: userId, account: accountId, iat: issuedAt, exp: expiresAt },
      { secret: this.secrets.jwtSecret, algorithm: 'HS256' },
    );
    return { token, expiresAt };
  }
}
