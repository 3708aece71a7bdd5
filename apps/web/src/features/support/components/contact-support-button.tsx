import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { Button, type ButtonProps } from '@/components/ui/button';
import { paths } from '@/config/paths';
import { ContactSupportDialog } from './contact-support-dialog';

/**
 * "Send Message" and "Contact Support Team": a signed-in user writes in a dialog; a visitor signs in first, since the
 * answer goes to an account.
 */
export function ContactSupportButton({
  isAuthenticated,
  children,
  ...props
}: ButtonProps & { isAuthenticated: boolean; children: ReactNode }) {
  const [open, setOpen] = useState(false);
  const navigate = useNavigate();
  return (
    <>
      <Button {...props} onClick={() => (isAuthenticated ? setOpen(true) : void navigate(paths.auth.login.getHref()))}>
        {children}
      </Button>
      {isAuthenticated && <ContactSupportDialog open={open} onClose={() => setOpen(false)} />}
    </>
  );
}
