import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { EnvelopeExceptionFilter } from '../errors/envelope-exception.filter.js';
import { RequestValidationPipe } from '../validation/request-validation.pipe.js';

/**
 * The global pipe and filter that, with EnvelopingFastifyAdapter (which
 * envelopes what routes return), give every HTTP answer its documented shape.
 */
@Module({
  providers: [
    { provide: APP_PIPE, useClass: RequestValidationPipe },
    { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
  ],
})
export class HttpModule {}
