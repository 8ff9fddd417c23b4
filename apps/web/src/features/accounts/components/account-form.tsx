import { IMAGE_FILES_HINT, imageUrls, PROFILE_IMAGE_MESSAGES } from '@stagedoor/shared/images';
import { zodResolver } from '@hookform/resolvers/zod';
import { NICKNAME_HINT, type SessionUser } from '@stagedoor/shared/accounts';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { ImageInput, Input, Select, Textarea } from '../../../components/ui/field';
import { paths } from '../../../config/paths';
import { timeZoneChoices } from '../../../lib/dates';
import { reportSubmitError } from '../../../lib/form-errors';
import { formFields } from '../../../lib/form-fields';
import { IMAGE_ACCEPT } from '../../../lib/images';
import { notify } from '../../../lib/notify';
import { useImagePick } from '../../../lib/use-image-pick';
import { useSaveProfile, ZAccountForm } from '../api/profile';

const fieldNames = ['firstName', 'lastName', 'nickname', 'biography', 'timeZone'] as const;

export function AccountForm({ account }: { account: SessionUser }) {
  const isCreator = account.role === 'creator';
  const navigate = useNavigate();
  const save = useSaveProfile(account.role);
  const headerImage = useImagePick(PROFILE_IMAGE_MESSAGES);
  const profileImage = useImagePick(PROFILE_IMAGE_MESSAGES);
  const timeZones = useMemo(() => timeZoneChoices(account.timeZone), [account.timeZone]);
  const form = useForm({
    resolver: zodResolver(ZAccountForm),
    defaultValues: {
      firstName: account.firstName,
      lastName: account.lastName,
      nickname: account.nickname,
      biography: account.biography ?? '',
      timeZone: account.timeZone,
    },
  });
  const {
    handleSubmit,
    setError,
    formState: { isSubmitting },
  } = form;
  const field = formFields(form);

  const onSubmit = handleSubmit(async (values) => {
    try {
      await save.mutateAsync({ values, headerImage: headerImage.file, profileImage: profileImage.file });
      notify('Profile updated successfully!', 'success');
      navigate(isCreator ? paths.creatorDashboard : paths.userDashboard);
    } catch (error) {
      reportSubmitError(error, {
        setError,
        fields: fieldNames,
        fallback: 'Failed to update profile',
        otherFields: { headerImageUrl: headerImage.setError },
      });
    }
  });

  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-xl font-semibold text-slate-900">Account Information</h2>
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5">
        <Input label="Email" type="email" value={account.email} readOnly />
        <Input label="Nickname" hint={NICKNAME_HINT} autoComplete="nickname" {...field('nickname')} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Input label="First name" autoComplete="given-name" {...field('firstName')} />
          <Input label="Last name" autoComplete="family-name" {...field('lastName')} />
        </div>
        <Select label="Time zone" hint="Every date and time is shown in this zone." {...field('timeZone')}>
          {timeZones.map((zone) => (
            <option key={zone} value={zone}>
              {zone}
            </option>
          ))}
        </Select>
        {isCreator ? (
          <>
            <ImageInput
              label="Header image"
              name="headerImageUrl"
              hint={`Recommended width: 1980px. ${IMAGE_FILES_HINT}`}
              shape="banner"
              accept={IMAGE_ACCEPT}
              currentUrl={account.headerImageUrl && imageUrls.creatorHeader(account.headerImageUrl)}
              file={headerImage.file}
              onPick={headerImage.pick}
              error={headerImage.error}
            />
            <ImageInput
              label="Profile image"
              name="profileImageUrl"
              hint={`Recommended size: 400x400px. ${IMAGE_FILES_HINT}`}
              shape="avatar"
              accept={IMAGE_ACCEPT}
              currentUrl={account.profileImageUrl && imageUrls.profile(account.role, account.profileImageUrl)}
              file={profileImage.file}
              onPick={profileImage.pick}
              error={profileImage.error}
            />
            <Textarea label="Biography" rows={5} {...field('biography')} />
          </>
        ) : null}
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Updating...' : 'Update Profile'}
        </Button>
      </form>
    </Card>
  );
}
