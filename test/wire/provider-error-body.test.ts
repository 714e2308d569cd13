import { expect } from 'chai';
import { providerErrorDetails } from '../../lib/wire/provider-error-body';

// The one provider-error reader, as the HTTP client (error bodies) and the sniffer (a body in
// place of a stream) call it; the mappers' use of it is in mapper-kit-rules.test.ts.

describe('providerErrorDetails', () => {
  const cases: ReadonlyArray<[string, unknown, unknown]> = [
    [
      'OpenAI: error.message with type and code',
      { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } },
      {
        message: 'Incorrect API key provided',
        code: 'invalid_api_key',
        status: undefined,
        error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' },
      },
    ],
    [
      'Anthropic: the type is the code',
      { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } },
      { message: 'invalid x-api-key', code: 'authentication_error', status: undefined, error: { type: 'authentication_error', message: 'invalid x-api-key' } },
    ],
    [
      'Gemini in a one-element array: numeric code as status, status name as code',
      [{ error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } }],
      { message: 'models/x is not found', code: 'NOT_FOUND', status: 404, error: { code: 404, message: 'models/x is not found', status: 'NOT_FOUND' } },
    ],
    ['Ollama: a text error', { error: 'model "x" not found' }, { message: 'model "x" not found', code: undefined, status: undefined, error: 'model "x" not found' }],
    [
      'vLLM: a flat error object',
      { object: 'error', message: 'maximum context length exceeded', type: 'BadRequestError', code: 400 },
      { message: 'maximum context length exceeded', code: 'BadRequestError', status: 400, error: { object: 'error', message: 'maximum context length exceeded', type: 'BadRequestError', code: 400 } },
    ],
    [
      'a flat `type: error` object: the marker is no code',
      { type: 'error', message: 'Overloaded' },
      { message: 'Overloaded', code: undefined, status: undefined, error: { type: 'error', message: 'Overloaded' } },
    ],
    ['a flat error without a message: its JSON text', { type: 'error' }, { message: '{"type":"error"}', code: undefined, status: undefined, error: { type: 'error' } }],
    ['FastAPI: detail', { detail: 'Not Found' }, { message: 'Not Found', code: undefined, status: undefined, error: { detail: 'Not Found' } }],
    ['a code outside 100–599 is no status', { error: { message: 'x', code: 99 } }, { message: 'x', code: undefined, status: undefined, error: { message: 'x', code: 99 } }],
  ];
  for (const [what, body, expected] of cases) {
    it(what, () => {
      expect(providerErrorDetails(body)).to.deep.equal(expected);
    });
  }

  it('is null for a value that holds no error', () => {
    const none = [null, 'text', 42, [], [{}, {}], {}, { error: null }, { error: '  ' }, { detail: 3 }, { choices: [] }];
    expect(none.map((body) => providerErrorDetails(body))).to.deep.equal(none.map(() => null));
  });
});
