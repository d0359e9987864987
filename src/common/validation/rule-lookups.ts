import { getMetadataStorage, type MetadataStorage } from 'class-validator';

type Rules = ReturnType<MetadataStorage['getTargetValidationMetadatas']>;
type Grouped = ReturnType<MetadataStorage['groupByPropertyName']>;

let kept = false;

/**
 * class-validator looks up a class's rules on every validation by testing the
 * class against every class that has rules, for the inherited ones
 * (typestack/class-validator#2686): a cost that grows with every DTO of the
 * service and is paid by every request with a body. A class's rules are fixed
 * once the class is defined, so each lookup made without a schema or groups, as
 * this service validates, is kept with its grouping by property.
 */
export function keepRuleLookups(): void {
  if (kept) return;
  kept = true;
  const storage = getMetadataStorage();
  const lookUp = storage.getTargetValidationMetadatas.bind(storage);
  const group = storage.groupByPropertyName.bind(storage);
  const lookups = new WeakMap<object, Map<string, Rules>>();
  const groupings = new WeakMap<Rules, Grouped>();

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    if (schema !== undefined || (groups !== undefined && groups.length > 0)) return lookUp(target, schema, always, strictGroups, groups);
    const key = `${always} ${strictGroups}`;
    let byOptions = lookups.get(target);
    if (!byOptions) lookups.set(target, (byOptions = new Map()));
    let rules = byOptions.get(key);
    if (!rules) {
      rules = lookUp(target, schema, always, strictGroups, groups);
      byOptions.set(key, rules);
      groupings.set(rules, group(rules));
    }
    return rules;
  };
  storage.groupByPropertyName = (rules) => groupings.get(rules) ?? group(rules);
}
