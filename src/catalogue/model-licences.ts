/** A default model's licence as /v1/models states it (the way GET /v1/voices states each voice's). */
export interface ModelLicence {
  /** SPDX id. */
  license: string;
  /** Whether the licence allows commercial use. */
  commercial: boolean;
  /** What the licence forbids the model and its outputs to be used for, and what it asks of you. */
  use_restrictions?: string;
  /** Where the licence's own text is. */
  license_url?: string;
}

/**
 * image-v1's default: aislamov/lcm-dreamshaper-v7-onnx, an fp16 ONNX export of
 * SimianLuo/LCM_Dreamshaper_v7. That card says MIT, but the weights are distilled from Lykon's
 * Dreamshaper 7, a Stable Diffusion v1.5 fine-tune under CreativeML OpenRAIL-M, whose paragraphs 4–5
 * binds every derivative to its use restrictions: they are stated here as the binding reading.
 */
export const OPENRAIL_M: ModelLicence = {
  license: 'CreativeML-OpenRAIL-M',
  commercial: true,
  use_restrictions:
    "CreativeML OpenRAIL-M Attachment A: not to break any law; not to exploit or harm minors; not to make or spread verifiably false information meant to harm others, or personal information that can harm a person; not to defame, disparage or harass; not for fully automated decisions that adversely affect a person's legal rights or obligations; not to discriminate against or harm people for their social behaviour, personal characteristics or legally protected characteristics, or exploit the vulnerabilities of a group by age, social, physical or mental characteristics; not to give medical advice or interpret medical results; not for the administration of justice, law enforcement, immigration or asylum (such as predicting crime). Anyone you let use the model or its images must be bound by the same restrictions (paragraph 4); you are accountable for the images you make (paragraph 6).",
  license_url: 'https://huggingface.co/spaces/CompVis/stable-diffusion-license',
};
