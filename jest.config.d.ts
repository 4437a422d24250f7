/** Types of jest.config.js for the tier lint (test/architecture/test-tiers.test.ts). */
export declare const TIERS: Record<'unit' | 'integration' | 'e2e', { testMatch: string[]; testPathIgnorePatterns: string[] }>;
declare const config: Record<string, unknown>;
export default config;
