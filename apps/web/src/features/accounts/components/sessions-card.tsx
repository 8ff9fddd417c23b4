import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { paths } from '../../../config/paths';
import { errorMessage } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useSession } from '../../../lib/session';

/** Signs the account out everywhere: a lost phone, a shared computer left signed in. */
export function SessionsCard() {
  const { logoutEverywhere } = useSession();
  const navigate = useNavigate();
  const [isSigningOut, setSigningOut] = useState(false);

  const signOutEverywhere = async () => {
    setSigningOut(true);
    try {
      await logoutEverywhere();
      notify('Logged out from all devices');
      navigate(paths.home);
    } catch (error) {
      notify(errorMessage(error, 'Failed to log out from all devices'), 'error');
      setSigningOut(false);
    }
  };

  return (
    <Card className="p-6 sm:p-8">
      <h2 className="text-xl font-semibold text-slate-900">Sessions</h2>
      <p className="mt-2 text-sm text-slate-600">
        Signed in on a device you no longer use? Log out everywhere, this browser included, and sign in again
        where you need to.
      </p>
      <Button
        variant="secondary"
        className="mt-6"
        disabled={isSigningOut}
        onClick={() => void signOutEverywhere()}
      >
        {isSigningOut ? 'Logging out...' : 'Log out from all devices'}
      </Button>
    </Card>
  );
}
