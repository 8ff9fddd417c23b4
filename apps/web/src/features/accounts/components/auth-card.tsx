import type { ReactNode } from 'react';
import { Card } from '../../../components/ui/card';

type AuthCardProps = {
  title: string;
  subtitle: ReactNode;
  children: ReactNode;
  /** Links to the neighbouring auth screens. */
  footer: ReactNode;
};

export function AuthCard({ title, subtitle, children, footer }: AuthCardProps) {
  return (
    <div className="flex flex-1 items-start justify-center bg-gradient-to-b from-slate-950 via-slate-900 to-slate-50 px-4 py-12 sm:py-20">
      <Card className="w-full max-w-md p-6 sm:p-8">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{title}</h1>
        <p className="mt-1 text-sm text-slate-600">{subtitle}</p>
        <div className="mt-6">{children}</div>
        <div className="mt-6 space-y-2 border-t border-slate-200 pt-4 text-sm text-slate-600">{footer}</div>
      </Card>
    </div>
  );
}
