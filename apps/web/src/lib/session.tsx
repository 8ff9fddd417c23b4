import type { LoginRequest, RegisterRequest, Role, SessionUser } from '@stagedoor/shared/accounts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, use, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { paths } from '../config/paths';
import { AuthAnswer, VerifyTokenAnswer } from './answers';
import { api, errorMessage, onUnauthorized } from './api-client';
import { clearStoredSession, readStoredToken, readStoredUser, storeToken, storeUser } from './auth-storage';

type SessionState = {
  user: SessionUser | null;
  token: string | null;
  /** A login or registration is in flight. */
  loading: boolean;
  /** The text of the last failed login or registration. */
  error: string | null;
  /** The stored token has been checked (or there was none): routes may render. */
  initialized: boolean;
};

type Session = SessionState & {
  login: (role: Role, credentials: LoginRequest) => Promise<SessionUser>;
  /** Creates the account, then signs in with the same credentials (spec §4). */
  register: (role: Role, data: RegisterRequest) => Promise<SessionUser>;
  /** Signs this browser out; the server revokes its token (not waited for: offline, it just expires). */
  logout: () => void;
  /** Revokes every session of the account (every device), then signs this browser out. */
  logoutEverywhere: () => Promise<void>;
  updateUser: (user: SessionUser) => void;
  setToken: (token: string) => void;
};

const SessionContext = createContext<Session | null>(null);

const signedOut = { user: null, token: null, loading: false, error: null, initialized: true } as const;

function initialState(): SessionState {
  const token = readStoredToken();
  return { ...signedOut, token, user: token ? readStoredUser() : null, initialized: !token };
}

/** Asks the server whether the stored token is still good, and who it belongs to. */
const verifyStoredToken = () => api.get('/auth/verify-token', { schema: VerifyTokenAnswer });

/** The stored token's check when the page started it before React rendered (startSessionCheck). */
let startedCheck: ReturnType<typeof verifyStoredToken> | null = null;

/**
 * Starts checking the stored token as the page loads (main.tsx), not after React's first render: every
 * route waits for this check, so it runs beside the loading of their code.
 */
export function startSessionCheck(): void {
  if (!readStoredToken()) return;
  startedCheck = verifyStoredToken();
  // Handled by the provider once it mounts; until then a failure is not an unhandled one.
  startedCheck.catch(() => undefined);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState(initialState);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const location = useLocation();
  const initializedRef = useRef(state.initialized);
  const locationRef = useRef(location);

  useEffect(() => {
    initializedRef.current = state.initialized;
    locationRef.current = location;
  });

  const clear = useCallback(() => {
    clearStoredSession();
    queryClient.clear();
    setState(signedOut);
  }, [queryClient]);

  useEffect(() => {
    if (!readStoredToken()) return;
    const check = startedCheck ?? verifyStoredToken();
    startedCheck = null;
    let dropped = false;
    check
      .then(({ valid, user }) => {
        if (dropped) return;
        if (valid && user) {
          storeUser(user);
          setState((current) => ({ ...current, user, initialized: true }));
        } else {
          clear();
        }
      })
      .catch(() => {
        if (!dropped) clear();
      });
    return () => {
      dropped = true;
    };
  }, [clear]);

  useEffect(
    () =>
      onUnauthorized(() => {
        clear();
        // During the startup check a rejected token just means "signed out", not "leave this page".
        if (!initializedRef.current) return;
        const { pathname, search, hash } = locationRef.current;
        navigate(paths.login(`${pathname}${search}${hash}`), { replace: true });
      }),
    [clear, navigate],
  );

  const signIn = useCallback(async (role: Role, credentials: LoginRequest) => {
    const { access_token, user } = await api.post(`/auth/login/${role}`, credentials, {
      schema: AuthAnswer,
      anonymous: true,
    });
    storeToken(access_token);
    storeUser(user);
    setState({ ...signedOut, token: access_token, user });
    return user;
  }, []);

  const track = useCallback(async <T,>(action: () => Promise<T>, fallbackError: string): Promise<T> => {
    setState((current) => ({ ...current, loading: true, error: null }));
    try {
      return await action();
    } catch (error) {
      setState((current) => ({ ...current, loading: false, error: errorMessage(error, fallbackError) }));
      throw error;
    }
  }, []);

  const login = useCallback(
    (role: Role, credentials: LoginRequest) => track(() => signIn(role, credentials), 'Login error'),
    [signIn, track],
  );

  const register = useCallback(
    (role: Role, data: RegisterRequest) =>
      track(async () => {
        await api.post(`/auth/register/${role}`, data, { anonymous: true });
        return signIn(role, { email: data.email, password: data.password });
      }, 'Registration error'),
    [signIn, track],
  );

  const updateUser = useCallback((user: SessionUser) => {
    storeUser(user);
    setState((current) => ({ ...current, user }));
  }, []);

  const setToken = useCallback((token: string) => {
    storeToken(token);
    setState((current) => ({ ...current, token }));
  }, []);

  const logout = useCallback(() => {
    // The request takes the token with it before `clear` forgets it.
    api.post('/auth/logout').catch(() => undefined);
    clear();
  }, [clear]);

  const logoutEverywhere = useCallback(async () => {
    await api.post('/auth/logout-all');
    clear();
  }, [clear]);

  const value = useMemo<Session>(
    () => ({ ...state, login, register, logout, logoutEverywhere, updateUser, setToken }),
    [state, login, register, logout, logoutEverywhere, updateUser, setToken],
  );

  return <SessionContext value={value}>{children}</SessionContext>;
}

export function useSession(): Session {
  const session = use(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** The signed-in account, for screens that only render behind the login guard. */
export function useCurrentUser(): SessionUser {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser must be used behind the login guard');
  return user;
}
