/**
 * Style presets: the request's prompt first (CLIP reads 77 tokens, so the subject is never cut),
 * then what makes each art form itself. Written for one-step models, which have no negative prompt.
 */
export const STYLE_PRESETS = {
  /** Warli (Maharashtra): white rice-paste figures of circles and triangles on a mud wall. */
  warli:
    'Warli tribal painting, white rice-paste line figures on a terracotta red-brown mud wall, stick figures made of circles and triangles, tarpa dance circle, simple geometric shapes, flat, no shading, white on earth red',
  /** Madhubani (Mithila, Bihar): dense line-filled motifs, double outlines, natural dyes. */
  madhubani:
    'Madhubani Mithila painting, bold double black ink outlines, every space filled with fine line patterns, fish, peacocks, lotus and vines, natural dyes of turmeric yellow, indigo, vermilion and leaf green, flat, no perspective, handmade paper',
  /** Mughal miniature: fine brushwork, gold borders, flat layered perspective. */
  mughal:
    'Mughal miniature painting, fine detailed brushwork, opaque watercolour on paper, ornate gold border with floral arabesques, flat layered perspective, figures in profile, lapis blue, malachite green and gold leaf, royal court style',
  /** Modern Indian: contemporary painting after the Indian modernists. */
  modern:
    'modern Indian painting, contemporary, bold expressive brushstrokes, vibrant colours, strong simplified forms, clean composition, canvas texture',
  /** OpenAI's styles, accepted: colour and light words, as close as a prompt gets. */
  vivid: 'vivid saturated colours, dramatic lighting, high contrast',
  natural: 'natural colours, soft daylight, realistic',
} as const;

export type StylePreset = keyof typeof STYLE_PRESETS;

/** The prompt the model reads for a request's prompt and style. */
export const styledPrompt = (prompt: string, style?: StylePreset): string =>
  style ? `${prompt}, ${STYLE_PRESETS[style]}` : prompt;
