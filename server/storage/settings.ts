/**
 * Object storage settings from the environment (README, "Configuration"): S3_BUCKET turns it
 * on; without it files stay in DATA_DIR. Half a configuration (keys without a bucket, one key
 * without the other) stops the start rather than silently using the local folder.
 */

export interface S3Settings {
  bucket: string;
  /** Absent: AWS S3's own endpoint for the region. */
  endpoint?: string;
  region: string;
  /** Absent: the SDK's usual sources (instance role, AWS_* variables, profile). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Path-style URLs (`endpoint/bucket/key`), which MinIO, Garage, Ceph and emulators need. */
  forcePathStyle: boolean;
}

export const DEFAULT_S3_REGION = 'us-east-1';

/** The S3 settings, undefined without S3_BUCKET; throws an Error saying what is wrong. */
export function s3SettingsFrom(env: NodeJS.ProcessEnv): S3Settings | undefined {
  const bucket = env.S3_BUCKET?.trim() || undefined;
  const accessKeyId = env.S3_ACCESS_KEY_ID || undefined;
  const secretAccessKey = env.S3_SECRET_ACCESS_KEY || undefined;
  const endpoint = env.S3_ENDPOINT?.trim() || undefined;
  if (!bucket) {
    const stray = ['S3_ENDPOINT', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'].filter((n) => env[n]);
    if (stray.length > 0) throw new Error(`${stray.join(', ')} set without S3_BUCKET`);
    return undefined;
  }
  if (!accessKeyId !== !secretAccessKey)
    throw new Error('Set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither');
  if (endpoint && !/^https?:\/\/[^/]/.test(endpoint))
    throw new Error(`S3_ENDPOINT must be an http or https URL, not '${endpoint}'`);
  const pathStyle = env.S3_FORCE_PATH_STYLE ?? '';
  if (!['', '0', '1'].includes(pathStyle))
    throw new Error(`S3_FORCE_PATH_STYLE must be 1 or 0, not '${pathStyle}'`);
  return {
    bucket,
    endpoint,
    region: env.S3_REGION?.trim() || DEFAULT_S3_REGION,
    accessKeyId,
    secretAccessKey,
    forcePathStyle: pathStyle === '1',
  };
}
