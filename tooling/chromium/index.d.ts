export declare const CHROMIUM_ARGS: string[];
export declare function chromiumPath(): string;
export declare function extensionLaunchOptions(extensionDir: string): {
  executablePath: string;
  headless: boolean;
  args: string[];
  viewport: { width: number; height: number };
};
