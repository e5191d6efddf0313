import { ResponsiveContainer } from 'recharts';

export function Sized({
  width,
  height,
  children,
}: {
  width?: number;
  height: number;
  children: React.ReactElement;
}) {
  return width ? (
    children
  ) : (
    <ResponsiveContainer width="100%" height={height}>
      {children}
    </ResponsiveContainer>
  );
}
