import {
  ZAuthResponse,
  ZProfileForm,
  ZSessionUser,
  ZTimeZone,
  ZUserEnvelope,
  type ChangePasswordRequest,
  type Role,
  type SessionUser,
} from '@stagedoor/shared/accounts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryKeys } from '../../../lib/query-keys';
import { api } from '../../../lib/api-client';
import { useSession } from '../../../lib/session';

/** The profile endpoints answer either the bare user or `{user}`; both mean the same account. */
const ZUserAnswer = z.union([ZSessionUser, ZUserEnvelope.transform(({ user }) => user)]);

export function useProfile(user: SessionUser) {
  return useQuery({
    queryKey: queryKeys.profile(user.role, user.id),
    queryFn: ({ signal }) => api.get(`/auth/profile/${user.role}`, { schema: ZUserAnswer, signal }),
    meta: { errorMessage: 'Error loading profile' },
  });
}

/** The Account Information form: the profile fields and the zone every date is shown in. */
export const ZAccountForm = ZProfileForm.extend({ timeZone: ZTimeZone });
type AccountFormValues = z.infer<typeof ZAccountForm>;

type ProfileChanges = {
  values: AccountFormValues;
  /** Creators only: a newly picked header image. */
  headerImage: File | null;
  /** Creators only: a newly picked profile image. */
  profileImage: File | null;
};

async function saveProfile(role: Role, { values, headerImage, profileImage }: ProfileChanges) {
  const { firstName, lastName, nickname, biography, timeZone } = values;
  if (role === 'user') {
    return api.patch(
      '/auth/profile/user',
      { firstName, lastName, nickname, timeZone },
      { schema: ZUserAnswer },
    );
  }

  const form = new FormData();
  form.append('firstName', firstName);
  form.append('lastName', lastName);
  form.append('nickname', nickname);
  form.append('biography', biography ?? '');
  form.append('timeZone', timeZone);
  if (headerImage) form.append('headerImageUrl', headerImage);
  const saved = await api.post('/auth/profile/creator', form, { schema: ZUserAnswer });
  if (!profileImage) return saved;

  const imageForm = new FormData();
  imageForm.append('profileImageUrl', profileImage);
  // Spec §7: the profile details are saved already; a failed image upload does not undo that.
  return api
    .post('/auth/profile/creator/profile-image', imageForm, { schema: ZUserAnswer })
    .catch(() => saved);
}

export function useSaveProfile(role: Role) {
  const queryClient = useQueryClient();
  const { updateUser } = useSession();
  return useMutation({
    mutationFn: (changes: ProfileChanges) => saveProfile(role, changes),
    onSuccess: (user) => {
      queryClient.setQueryData(queryKeys.profile(user.role, user.id), user);
      updateUser(user);
    },
  });
}

export function useChangePassword() {
  const { setToken, updateUser } = useSession();
  return useMutation({
    mutationFn: (request: ChangePasswordRequest) =>
      api.post('/auth/change-password', request, { schema: ZAuthResponse }),
    // The server revokes every older token on a password change: keep the one it just issued.
    onSuccess: ({ access_token, user }) => {
      setToken(access_token);
      updateUser(user);
    },
  });
}
