import { AuthLayout } from '@/components/layouts/auth-layout';
import { Alert } from '@/components/ui/alert';
import { ChangePasswordForm } from '@/features/settings/components/change-password-form';

/**
 * /change-password: the first sign-in of an account an admin created. Its temporary password works only here (the
 * server answers PASSWORD_CHANGE_REQUIRED elsewhere); once replaced, the route gate opens the dashboard.
 */
export default function ChangeTemporaryPasswordRoute() {
  return (
    <AuthLayout title="Choose your password" centered>
      <div className="space-y-4">
        <Alert tone="info" data-testid="temporary-password-notice">
          Your account was created by an administrator with a temporary password. Choose your own password to continue:
          enter the temporary one as the current password.
        </Alert>
        <ChangePasswordForm />
      </div>
    </AuthLayout>
  );
}
