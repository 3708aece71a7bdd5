import { SignJWT, jwtVerify, errors as joseErrors } from 'jose';
import type { TUserRole } from '@docflow/contracts';
import { AppError } from '../lib/app-error';

export interface AccessClaims {
  sub: string;
  role: TUserRole;
  sid: string;
}

const ISSUER = 'docflow';
const AUDIENCE = 'docflow-dashboard';

/** Short-lived JWT access tokens (HS256) for the dashboard. Processing routes never accept them. */
export function createAccessTokens(secret: Uint8Array, ttlSeconds: number) {
  return {
    ttlSeconds,
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ role: claims.role, sid: claims.sid })
        .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setAudience(AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${ttlSeconds}s`)
        .sign(secret);
    },
    async verify(token: string): Promise<AccessClaims> {
      try {
        const { payload } = await jwtVerify(token, secret, {
          issuer: ISSUER,
          audience: AUDIENCE,
          algorithms: ['HS256'],
        });
        return { sub: String(payload.sub), role: payload.role as TUserRole, sid: String(payload.sid) };
      } catch (err) {
        if (err instanceof joseErrors.JWTExpired)
          throw new AppError('TOKEN_EXPIRED', 'Access token expired', { cause: err });
        throw new AppError('INVALID_TOKEN', 'Invalid access token', { cause: err });
      }
    },
  };
}
export type AccessTokens = ReturnType<typeof createAccessTokens>;
