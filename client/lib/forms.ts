/**
 * Forms: react-hook-form, checked with the shared rules of shared/contract/accounts.ts, so the browser
 * shows the very messages the backend's schemas give (they are built from the same rules).
 * Errors show once a field has been touched (`mode: "onTouched"`), and on submit.
 * docs/decisions/007-ui-primitives-and-forms.md explains the choice.
 */
import {
  type DefaultValues,
  type FieldErrors,
  type Resolver,
  type UseFormReturn,
  useForm,
} from "react-hook-form";
import { type Rule, validateField } from "../../shared/validation.ts";

type StringValues = Record<string, string>;

/** Each field's rules; a function for rules that depend on other fields (a confirmation, say). */
export type FormRules<V extends StringValues> = {
  [K in keyof V]: readonly Rule[] | ((values: V) => readonly Rule[]);
};

export function rulesResolver<V extends StringValues>(rules: FormRules<V>): Resolver<V> {
  return (values) => {
    const errors: Record<string, { type: string; message: string }> = {};
    for (const field of Object.keys(rules) as (keyof V & string)[]) {
      const fieldRules: readonly Rule[] | ((values: V) => readonly Rule[]) = rules[field];
      const list = typeof fieldRules === "function" ? fieldRules(values) : fieldRules;
      const message = validateField(values[field] ?? "", list);
      if (message) errors[field] = { type: "rule", message };
    }
    return Object.keys(errors).length > 0
      ? { values: {}, errors: errors as FieldErrors<V> }
      : { values, errors: {} };
  };
}

/** A form whose fields are checked by their shared rules once touched, and all on submit. */
export function useRulesForm<V extends StringValues>(
  rules: FormRules<V>,
  defaultValues: DefaultValues<V>,
): UseFormReturn<V> {
  return useForm<V>({ mode: "onTouched", resolver: rulesResolver(rules), defaultValues });
}
