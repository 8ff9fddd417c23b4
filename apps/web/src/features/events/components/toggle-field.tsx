import { Field, Label, Description, Switch } from '@headlessui/react';

type ToggleFieldProps = {
  label: string;
  description: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
};

/** An on/off field of the event form (Headless UI's Switch), its label and what it means. */
export function ToggleField({ label, description, checked, onChange }: ToggleFieldProps) {
  return (
    <Field className="flex items-start gap-3">
      <Switch
        checked={checked}
        onChange={onChange}
        className="group relative mt-0.5 inline-flex h-6 w-11 shrink-0 cursor-pointer rounded-full bg-slate-300 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600 data-checked:bg-brand-600"
      >
        <span
          aria-hidden
          className="size-5 translate-x-0.5 translate-y-0.5 rounded-full bg-white shadow transition-transform group-data-checked:translate-x-5.5"
        />
      </Switch>
      <div>
        <Label className="text-sm font-medium text-slate-800">{label}</Label>
        <Description className="text-xs text-slate-500">{description}</Description>
      </div>
    </Field>
  );
}
