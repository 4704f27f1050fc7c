// Which models take images (hybrid mode's screenshot, docs/specs.md, "Hybrid Vision + Skeleton
// Mode"). Every Gemini model does. OpenAI-compatible endpoints serve anything, so their model is
// judged by its name unless the configuration says; a wrong "no" only costs the screenshot (the
// agent reads the page's DOM instead), a wrong "yes" makes the endpoint reject the request.

/** Families of OpenAI-compatible models known to accept image input. */
const VISION_MODEL =
  /gpt-4o|gpt-4\.1|gpt-4-turbo|gpt-5|\bo[134](?:-|$)|vision|(?:^|[-_.:/])vl(?:$|[-_.:])|\w-?vl\b|llava|pixtral|gemma-?3|minicpm-v|moondream|internvl|gemini|claude|llama-?4/i;

/** Whether an OpenAI-compatible model's name says it reads images (llava, qwen2.5-vl, gpt-4o…). */
export function looksMultimodal(model: string): boolean {
  return VISION_MODEL.test(model);
}
