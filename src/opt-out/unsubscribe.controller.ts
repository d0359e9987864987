import { Controller, Get, Header, Inject, Param, Post, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Public } from '../auth/public.decorator.js';
import { UnsubscribeService } from './unsubscribe.service.js';
import { confirmPage, donePage, unknownLinkPage } from './unsubscribe-page.js';

/**
 * `<OPT_OUT_LINK_BASE>/u/<token>`, outside `/v1`: the page a recipient opens
 * from a message's unsubscribe link, and its form. Public; a token that is not
 * one of ours is a plain 404 page.
 */
@ApiExcludeController()
@Public()
@Controller('u')
export class UnsubscribeController {
  constructor(@Inject(UnsubscribeService) private readonly unsubscribe: UnsubscribeService) {}

  @Get(':token')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async show(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const link = await this.unsubscribe.describe(token);
    if (!link) return notFound(reply);
    return confirmPage(link.accountName, link.phone);
  }

  @Post(':token')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Cache-Control', 'no-store')
  async confirm(@Param('token') token: string, @Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const link = await this.unsubscribe.optOut(token);
    if (!link) return notFound(reply);
    reply.status(200);
    return donePage(link.accountName);
  }
}

function notFound(reply: FastifyReply): string {
  reply.status(404);
  return unknownLinkPage();
}
