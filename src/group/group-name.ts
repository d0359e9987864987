/** A group's name as uniqueness and search compare it: case ignored. */
export const groupNameKey = (name: string): string => name.normalize('NFC').toLowerCase();
