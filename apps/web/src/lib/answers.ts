import type { AuthResponse, SessionUser, VerifyTokenResponse } from '@stagedoor/shared/accounts';
import type { ErrorBody } from '@stagedoor/shared/errors';
import type { Event } from '@stagedoor/shared/events';
import {
  array,
  boolean,
  int,
  nullable,
  number,
  object,
  oneOf,
  optional,
  parser,
  record,
  string,
  type Checked,
} from './shape';

/**
 * The answers the first load reads (an error body, the session, the event list), checked as the zod
 * schemas of packages/shared check them (ZErrorBody, ZSessionUser, ZVerifyTokenResponse, ZAuthResponse,
 * ZEvent) but without zod on the first screens (lib/shape.ts). The types below fail to compile when
 * a schema and its light twin no longer describe the same thing.
 */
const errorBody = object({
  statusCode: int,
  code: string,
  message: string,
  fields: optional(record(string)),
});

const sessionUser = object({
  id: int,
  email: string,
  role: oneOf(['creator', 'user']),
  firstName: string,
  lastName: string,
  nickname: string,
  biography: nullable(string),
  headerImageUrl: nullable(string),
  profileImageUrl: nullable(string),
  timeZone: string,
});

const verifyTokenResponse = object({ valid: boolean, user: nullable(sessionUser) });
const authResponse = object({ access_token: string, user: sessionUser });

const ticketType = object({
  id: int,
  name: string,
  price: number,
  maxTickets: int,
  ticketsLeft: int,
  salesStart: nullable(string),
  salesEnd: nullable(string),
  payWhatYouWant: nullable(object({ minimum: number, suggested: number })),
});

const event = object({
  id: int,
  name: string,
  description: string,
  image: nullable(string),
  price: number,
  maxTickets: int,
  maxPerBuyer: int,
  ticketsLeft: int,
  date: string,
  eventDate: string,
  isActive: boolean,
  cancelledAt: nullable(string),
  replayEnabled: boolean,
  hasReplay: boolean,
  creatorId: int,
  creator: object({ nickname: string, firstName: string, lastName: string, timeZone: string }),
  ticketTypes: array(ticketType),
});

export const ErrorBodyAnswer = parser(errorBody);
export const SessionUserAnswer = parser(sessionUser);
export const VerifyTokenAnswer = parser(verifyTokenResponse);
export const AuthAnswer = parser(authResponse);
export const EventListAnswer = parser(array(event));

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Assert<T extends true[]> = T;
type _Twins = Assert<
  [
    Same<Checked<typeof errorBody>, ErrorBody>,
    Same<Checked<typeof sessionUser>, SessionUser>,
    Same<Checked<typeof verifyTokenResponse>, VerifyTokenResponse>,
    Same<Checked<typeof authResponse>, AuthResponse>,
    Same<Checked<typeof event>, Event>,
  ]
>;
