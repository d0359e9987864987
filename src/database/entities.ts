import { Account } from '../account/entities/account.entity.js';
import { User } from '../account/entities/user.entity.js';
import { ApiKey } from '../auth/entities/api-key.entity.js';
import { MessagePrice } from '../billing/entities/message-price.entity.js';
import { Contact } from '../contact/entities/contact.entity.js';
import { GroupMember } from '../group/entities/group-member.entity.js';
import { Group } from '../group/entities/group.entity.js';
import { LocalNumber } from '../sender/entities/local-number.entity.js';
import { Sender } from '../sender/entities/sender.entity.js';

export const ENTITIES = [Account, User, ApiKey, Sender, LocalNumber, Contact, Group, GroupMember, MessagePrice];
