import { z } from 'zod';
import {
  BIOGRAPHY_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  NAME_MAX_LENGTH,
  NICKNAME_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
} from './limits';

export const ROLES = ['creator', 'user'] as const;
export const ZRole = z.enum(ROLES);
export type Role = z.infer<typeof ZRole>;

export const NICKNAME_HINT = 'Only letters, numbers, hyphens (-) and underscores (_). Max 32 characters.';
export const NICKNAME_PATTERN = /^[A-Za-z0-9_-]+$/;

const requiredText = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

export const ZEmail = z
  .string({ error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(EMAIL_MAX_LENGTH, `Email must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email('Email must be a valid email address'))
  .transform((email) => email.toLowerCase());

export const ZNewPassword = z
  .string({ error: 'Password is required' })
  .min(1, 'Password is required')
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

export const ZNickname = z
  .string({ error: 'Nickname is required' })
  .trim()
  .min(1, 'Nickname is required')
  .max(NICKNAME_MAX_LENGTH, NICKNAME_HINT)
  .regex(NICKNAME_PATTERN, NICKNAME_HINT);

export const ZFirstName = requiredText('First name', NAME_MAX_LENGTH);
export const ZLastName = requiredText('Last name', NAME_MAX_LENGTH);
export const ZBiography = z
  .string()
  .trim()
  .max(BIOGRAPHY_MAX_LENGTH, `Biography must be at most ${BIOGRAPHY_MAX_LENGTH} characters`);

/** An IANA time zone the runtime knows (`Europe/Lisbon`); how an account's dates are shown. */
export const ZTimeZone = z
  .string({ error: 'Time zone must be text' })
  .max(64, 'Time zone must be at most 64 characters')
  .refine(isTimeZone, 'Time zone must be an IANA time zone such as Europe/Lisbon');

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** POST /auth/register/{creator,user}; `timeZone` is the browser's (UTC when absent). */
export const ZRegisterRequest = z.object({
  firstName: ZFirstName,
  lastName: ZLastName,
  email: ZEmail,
  password: ZNewPassword,
  timeZone: ZTimeZone.optional(),
});
export type RegisterRequest = z.infer<typeof ZRegisterRequest>;

/** POST /auth/login/{creator,user} */
export const ZLoginRequest = z.object({
  email: ZEmail,
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required'),
});
export type LoginRequest = z.infer<typeof ZLoginRequest>;

/** PATCH /auth/profile/{creator,user}, PUT /users/profile/info: every field optional, none blank. */
export const ZProfileUpdateRequest = z.object({
  firstName: ZFirstName.optional(),
  lastName: ZLastName.optional(),
  nickname: ZNickname.optional(),
  biography: ZBiography.optional(),
  timeZone: ZTimeZone.optional(),
});
export type ProfileUpdateRequest = z.infer<typeof ZProfileUpdateRequest>;

/** The Account Information form of the Profile screen (both roles). */
export const ZProfileForm = z.object({
  firstName: ZFirstName,
  lastName: ZLastName,
  nickname: ZNickname,
  biography: ZBiography.optional(),
});
export type ProfileForm = z.infer<typeof ZProfileForm>;

/** POST /auth/forgot-password: answered 202 whether or not the email is an account's. */
export const ZForgotPasswordRequest = z.object({ email: ZEmail });
export type ForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

/** A link's token as mailed: what a reset or a watch link carries. */
const ZLinkToken = z
  .string({ error: 'Token is required' })
  .min(1, 'Token is required')
  .max(200, 'Token is too long');

/** POST /auth/reset-password/check: whether the mailed link still sets a password (204), before asking for one. */
export const ZResetLinkCheckRequest = z.object({ token: ZLinkToken });

/** POST /auth/reset-password: the token of the mailed link and the new password. */
export const ZResetPasswordRequest = z.object({
  token: ZLinkToken,
  password: ZNewPassword,
});
export type ResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** POST /auth/watch-link: the token of a watch link (`/watch/{token}`) from a mail that leads to a show. */
export const ZWatchLinkRequest = z.object({ token: ZLinkToken });
export type WatchLinkRequest = z.infer<typeof ZWatchLinkRequest>;

/** POST /auth/change-password */
export const ZChangePasswordRequest = z.object({
  currentPassword: z.string({ error: 'Current password is required' }).min(1, 'Current password is required'),
  newPassword: ZNewPassword,
});
export type ChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** A new password typed twice; the confirmation never leaves the browser. */
const newPasswordTwice = {
  newPassword: ZNewPassword,
  confirmPassword: z.string().min(1, 'Confirm password is required'),
};
const newPasswordsMatch = (form: { newPassword: string; confirmPassword: string }) =>
  form.newPassword === form.confirmPassword;
const mismatch = { message: 'New passwords do not match', path: ['confirmPassword'] };

/** The Change Password form of the Profile screen. */
export const ZChangePasswordForm = ZChangePasswordRequest.extend(newPasswordTwice).refine(
  newPasswordsMatch,
  mismatch,
);
export type ChangePasswordForm = z.infer<typeof ZChangePasswordForm>;

/** The form of a mailed reset link (/reset-password). */
export const ZResetPasswordForm = z.object(newPasswordTwice).refine(newPasswordsMatch, mismatch);

/** The signed-in account as the API presents it (spec §3 "Session user / creator"). */
export const ZSessionUser = z.object({
  id: z.number().int(),
  email: z.string(),
  role: ZRole,
  firstName: z.string(),
  lastName: z.string(),
  nickname: z.string(),
  biography: z.string().nullable(),
  headerImageUrl: z.string().nullable(),
  profileImageUrl: z.string().nullable(),
  /** IANA zone every date is shown in. */
  timeZone: z.string(),
});
export type SessionUser = z.infer<typeof ZSessionUser>;

export const ZAuthResponse = z.object({ access_token: z.string(), user: ZSessionUser });
export type AuthResponse = z.infer<typeof ZAuthResponse>;

/** POST /auth/watch-link: signed in as a login answers, and the event whose stream the link opens. */
export const ZWatchLinkResponse = ZAuthResponse.extend({ eventId: z.number().int().positive() });
export type WatchLinkResponse = z.infer<typeof ZWatchLinkResponse>;

export const ZVerifyTokenResponse = z.object({ valid: z.boolean(), user: ZSessionUser.nullable() });
export type VerifyTokenResponse = z.infer<typeof ZVerifyTokenResponse>;

export const ZUserEnvelope = z.object({ user: ZSessionUser });
