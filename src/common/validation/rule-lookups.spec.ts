import { getMetadataStorage, IsInt, IsString, validateSync } from 'class-validator';
import { keepRuleLookups } from './rule-lookups.js';

class Parent {
  @IsString()
  name: unknown;
}

class Child extends Parent {
  @IsInt()
  count: unknown;
}

const problems = (object: object) => validateSync(object, { forbidUnknownValues: false }).map((error) => Object.keys(error.constraints ?? {}));
const child = (fields: Record<string, unknown>) => Object.assign(new Child(), fields);
const lookUp = (target: Function, groups?: string[]) =>
  getMetadataStorage().getTargetValidationMetadatas(target, undefined as never, false, false, groups);

describe('keepRuleLookups', () => {
  beforeAll(() => keepRuleLookups());

  it('keeps the rules of a class, inherited ones included, and validates with them as before', () => {
    expect(lookUp(Child)).toBe(lookUp(Child));
    expect(
      lookUp(Child)
        .map((rule) => rule.propertyName)
        .sort(),
    ).toEqual(['count', 'name']);
    expect(problems(child({ name: 1, count: 'x' }))).toEqual([['isInt'], ['isString']]);
    expect(problems(child({ name: 1, count: 'x' }))).toEqual([['isInt'], ['isString']]);
    expect(problems(child({ name: 'a', count: 2 }))).toEqual([]);
    expect(problems(Object.assign(new Parent(), { name: 1 }))).toEqual([['isString']]);
  });

  it('looks the rules up afresh for a validation with groups', () => {
    expect(lookUp(Child, ['admin'])).not.toBe(lookUp(Child, ['admin']));
  });
});
