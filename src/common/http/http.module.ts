import { Module } from '@nestjs/common';
import { APP_FILTER, APP_INTERCEPTOR, APP_PIPE } from '@nestjs/core';
import { EnvelopeInterceptor } from '../envelope/envelope.interceptor.js';
import { EnvelopeExceptionFilter } from '../errors/envelope-exception.filter.js';
import { RequestValidationPipe } from '../validation/request-validation.pipe.js';

/** The global pipe, interceptor and filter that give every HTTP answer its documented shape. */
@Module({
  providers: [
    { provide: APP_PIPE, useClass: RequestValidationPipe },
    { provide: APP_INTERCEPTOR, useClass: EnvelopeInterceptor },
    { provide: APP_FILTER, useClass: EnvelopeExceptionFilter },
  ],
})
export class HttpModule {}
