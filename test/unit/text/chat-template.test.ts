import { describe, expect, it } from 'vitest';
import { ChatTemplate, TemplateRejected, pickTemplate } from '../../../src/common/text/chat-template';
import { llamaTokenizer, llamaTokenizerConfig } from './support';

const llama = new ChatTemplate(llamaTokenizerConfig().chat_template as string);
const tokenizer = llamaTokenizer();

const CHATML_WITH_TOOLS = `{%- if tools %}<tools>{% for t in tools %}{{ t.function.name }};{% endfor %}</tools>{% endif -%}
{%- for m in messages %}<|im_start|>{{ m.role }}
{{ m.content }}{% if m.tool_calls %}{% for c in m.tool_calls %}<tool_call>{{ c.function.arguments | tojson }}</tool_call>{% endfor %}{% endif %}<|im_end|>
{% endfor %}{% if add_generation_prompt %}<|im_start|>assistant
{% endif %}`;

describe('ChatTemplate', () => {
  it('renders the Llama-2 template with bos/eos and a system prompt', () => {
    const text = llama.render({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'नमस्ते' },
        { role: 'assistant', content: 'Hi' },
        { role: 'user', content: 'Again' },
      ],
      bosToken: tokenizer.bosToken,
      eosToken: tokenizer.eosToken,
    });
    expect(text).toBe('<s>[INST] <<SYS>>\nBe brief.\n<</SYS>>\n\nनमस्ते [/INST] Hi </s><s>[INST] Again [/INST]');
    expect(tokenizer.encode(text)[0]).toBe(tokenizer.id('<s>'));
  });

  it('turns raise_exception into TemplateRejected', () => {
    expect(() =>
      llama.render({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      }),
    ).toThrow(TemplateRejected);
    expect(() =>
      llama.render({
        messages: [
          { role: 'user', content: 'a' },
          { role: 'user', content: 'b' },
        ],
      }),
    ).toThrow(/must alternate/);
  });

  it('passes tools and tool-call arguments as objects, and null content as empty text', () => {
    const text = new ChatTemplate(CHATML_WITH_TOOLS).render({
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'c', type: 'function', function: { name: 'w', arguments: '{"city":"Pune"}' } }],
        },
      ],
      tools: [{ type: 'function', function: { name: 'w' } }],
    });
    expect(text).toContain('<tools>w;</tools>');
    expect(text).toContain('<|im_start|>assistant\n<tool_call>{"city": "Pune"}</tool_call><|im_end|>');
    expect(text.endsWith('<|im_start|>assistant\n')).toBe(true);
  });

  it('picks the tool_use template when tools are given', () => {
    const named = [
      { name: 'default', template: 'D' },
      { name: 'tool_use', template: 'T' },
    ];
    expect(pickTemplate(named, true)).toBe('T');
    expect(pickTemplate(named, false)).toBe('D');
    expect(pickTemplate({ default: 'D' }, true)).toBe('D');
    expect(pickTemplate('S', true)).toBe('S');
  });
});
