export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'done', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Why an action is refused in this status (409 `transition_invalide`); a draft refuses none. */
export const CAMPAIGN_REFUSALS: Record<Exclude<CampaignStatus, 'draft'>, string> = {
  scheduled: 'status: la campagne est déjà lancée',
  running: 'status: la campagne est déjà lancée',
  done: 'status: la campagne est terminée',
  cancelled: 'status: campagne déjà annulée',
};

export const CAMPAIGN_NOT_FOUND = 'Campagne non trouvée';
